import type { z } from 'zod';
import { YoiError } from '../errors/YoiError.js';
import type { ClientInfo, PodInfo } from '../hooks/HookTypes.js';
import { ExtensionEvent } from '../protocol/ExtensionEvent.js';
import { EVENT_NAMES, METHOD_NAMES, formatIssues, type ErrorCode } from '../protocol/index.js';

/** Passed to an extension method's handler. */
export interface MethodContext extends PodInfo {
  /** The connection that sent the method. */
  readonly client: ClientInfo;
  readonly requestId?: string;
}

/** What a handler returns: nothing (the requester gets `ack`), or a reply made by `channel.reply(data)`. */
export type MethodResult = void | undefined | ExtensionEvent;

/** A v2 method a plugin adds to the protocol. */
export interface MethodDefinition<S extends z.ZodType | null> {
  /** Wire name (`permission_reply`); snake_case, not a protocol method. */
  readonly name: string;
  /** Schema of `params`, or `null` for a method without params. */
  readonly params: S;
  handle(
    params: S extends z.ZodType ? z.output<S> : undefined,
    ctx: MethodContext,
  ): MethodResult | Promise<MethodResult>;
}

/** A v2 event a plugin adds to the protocol. */
export interface EventDefinition<S extends z.ZodType> {
  readonly name: string;
  readonly schema: S;
  /** May a slow client lose it (replaced by `lagged`)? Default false: delivered like `alert`. */
  readonly droppable?: boolean;
  /** What a v1 client sees instead: an alert message, or nothing (undefined). */
  readonly v1?: (data: z.output<S>) => string | undefined;
}

/** Emits one extension event; returned by `api.event()`. */
export interface EventChannel<D> {
  readonly name: string;
  /** Broadcasts to every client (with a `seq`). */
  emit(data: D): void;
  /** Sends to one client only (no `seq`), e.g. state a client missed before it connected. */
  send(client: ClientInfo, data: D): void;
  /** The reply an extension method returns to its requester. */
  reply(data: D): ExtensionEvent;
}

/** Thrown by an extension method's handler: the requester gets `error{code, message}`. */
export class MethodError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MethodError';
  }
}

/** Where extension events go: the running pod's bus (attached at start). */
export interface ExtensionPort {
  broadcast(event: ExtensionEvent): void;
  sendTo(clientId: number, event: ExtensionEvent): void;
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const RESERVED = new Set<string>([...METHOD_NAMES, ...EVENT_NAMES]);

/** The methods and events plugins added to one host's protocol. */
export class ProtocolExtensions {
  readonly methods = new Map<string, { def: MethodDefinition<z.ZodType | null>; plugin: string }>();
  readonly events = new Map<string, { def: EventDefinition<z.ZodType>; plugin: string }>();
  #port?: ExtensionPort;

  attach(port: ExtensionPort | undefined): void {
    this.#port = port;
  }

  addMethod(def: MethodDefinition<z.ZodType | null>, plugin: string): void {
    this.#checkName(def.name, 'method', plugin);
    if (typeof def.handle !== 'function')
      throw new YoiError('YOI_ERR_PLUGIN_INVALID', `plugin ${plugin}: method ${def.name} has no handle() function`);
    this.methods.set(def.name, { def, plugin });
  }

  addEvent<S extends z.ZodType>(def: EventDefinition<S>, plugin: string): EventChannel<z.output<S>> {
    this.#checkName(def.name, 'event', plugin);
    this.events.set(def.name, { def: def as EventDefinition<z.ZodType>, plugin });
    const make = (data: unknown): ExtensionEvent => {
      const parsed = def.schema.safeParse(data);
      if (!parsed.success)
        throw new YoiError(
          'YOI_ERR_PLUGIN',
          `plugin ${plugin} emitted an invalid ${def.name} event: ${formatIssues(parsed.error)}`,
        );
      return new ExtensionEvent(def.name, parsed.data, def.droppable ?? false, def.v1?.(parsed.data as z.output<S>));
    };
    const port = () => {
      if (!this.#port)
        throw new YoiError('YOI_ERR_PLUGIN', `plugin ${plugin} emitted ${def.name} before the pod started`);
      return this.#port;
    };
    return Object.freeze({
      name: def.name,
      emit: (data: z.output<S>) => port().broadcast(make(data)),
      send: (client: ClientInfo, data: z.output<S>) => port().sendTo(client.id, make(data)),
      reply: (data: z.output<S>) => make(data),
    });
  }

  #checkName(name: string, what: 'method' | 'event', plugin: string): void {
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw new YoiError(
        'YOI_ERR_PLUGIN_INVALID',
        `plugin ${plugin}: ${what} name ${JSON.stringify(name)} must be snake_case`,
      );
    }
    if (RESERVED.has(name))
      throw new YoiError('YOI_ERR_PLUGIN_INVALID', `plugin ${plugin}: ${what} ${name} is part of the protocol`);
    // A method and the event that answers it may share a name; two methods (or events) may not.
    const taken = what === 'method' ? this.methods.get(name) : this.events.get(name);
    if (taken)
      throw new YoiError(
        'YOI_ERR_PLUGIN_DUPLICATE',
        `plugin ${plugin}: ${what} ${name} is already defined by plugin ${taken.plugin}`,
      );
  }
}
