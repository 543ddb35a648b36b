import { YoiCommand } from '../YoiCommand.js';
import { configFlags, podFlags } from '../flags.js';

export default class Attach extends YoiCommand {
  static override summary = 'Open the interactive terminal client on a running pod.';
  static override description = [
    "Shows the conversation and streams the pod's events: replies as markdown (code highlighted), tool calls with their outcome, notifications and child pods' reports as they arrive, and while a run is live a spinner with its elapsed time and what it does. Type a message and press Enter to send it: a paste becomes a [Clipboard #N | X chars, Y lines] chip, and <sigil><token> becomes a reference for every kind the pod advertises (@path, #slug, /slug as the first word, and plugins' own), completed with Tab.",
    'Keys: Enter sends (queued while a run is active; on an empty line it resumes a paused run; with text while paused it asks before abandoning the run), Alt-Enter adds a line, Up/Down recall earlier inputs (kept per project), Ctrl-A/E, Alt-B/F, Ctrl-U/K/W, Alt-D and Ctrl-Y edit like readline, Ctrl-C pauses the run (twice: quit, the pod keeps running), Ctrl-X cancels the run, Ctrl-D asks, then shuts the pod down, PageUp/PageDown, Shift-Up/Down and Ctrl-Home/Ctrl-End scroll, Ctrl-O shows details (tool arguments and output, whole notifications).',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> attach',
    '<%= config.bin %> attach --pod reviewer',
    'YOI_TOKEN=… <%= config.bin %> attach --url wss://build-box:7443',
  ];
  static override flags = { ...configFlags, ...podFlags };

  async run(): Promise<void> {
    const { flags } = await this.parse(Attach);
    const [{ resolvePodTarget, notRunning }, { isSocketLive }, { YoiError }] = await Promise.all([
      import('../podTarget.js'),
      import('../../core/pod/podFiles.js'),
      import('../../core/errors/YoiError.js'),
    ]);
    const target = await resolvePodTarget(flags);
    if (target.url === undefined && !(await isSocketLive(target.socket))) throw await notRunning(target);
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new YoiError(
        'YOI_ERR_NOT_A_TERMINAL',
        'yoi attach needs an interactive terminal (in scripts use yoi send and yoi history)',
      );
    }
    // ink draws nothing until exit when it believes it runs in CI; here a terminal is attached.
    delete process.env.CI;
    delete process.env.CONTINUOUS_INTEGRATION;
    const [
      { render },
      { createElement },
      { AttachApp },
      { AttachController },
      { AttachStore },
      { enterTerminalModes },
    ] = await Promise.all([
      import('ink'),
      import('react'),
      import('../attach/AttachApp.js'),
      import('../attach/AttachController.js'),
      import('../attach/AttachStore.js'),
      import('../attach/terminalModes.js'),
    ]);

    const store = new AttachStore();
    let quit!: () => void;
    const quitting = new Promise<void>((resolve) => (quit = resolve));
    const controller = new AttachController({
      socketPath: target.socket,
      url: target.url,
      token: target.token,
      store,
      onQuit: () => quit(),
    });
    await controller.start();

    const restore = enterTerminalModes(process.stdin);
    const onData = (chunk: Buffer) => controller.terminal.write(chunk);
    let app: ReturnType<typeof render> | undefined;
    try {
      process.stdin.on('data', onData);
      process.stdin.resume();
      app = render(
        createElement(AttachApp, { store, podName: target.name, onLayout: (layout) => (controller.layout = layout) }),
        { exitOnCtrlC: false, patchConsole: false },
      );
      // After the first frame: the renderer costs about as much start-up time as ink.
      setImmediate(() => void controller.enableMarkdown());
      // ink unmounts itself, rejecting waitUntilExit, when rendering throws.
      await Promise.race([quitting, app.waitUntilExit()]);
    } finally {
      // Leave the alternate screen before anything (an error line included) is printed.
      app?.unmount();
      restore();
      process.stdin.off('data', onData);
      process.stdin.pause();
      await controller.stop();
    }
    this.print(`detached from pod ${target.name}${controller.podShutDown ? ' (it shut down)' : ' (it keeps running)'}`);
  }
}
