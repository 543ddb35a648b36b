import { z } from 'yoi';

/** The plugin's own section of the config file, `tickets: {...}`. */
export const TicketsConfigSchema = z
  .strictObject({
    /** The folder holding one `<ID>.md` per ticket, relative to the project directory. */
    dir: z.string().min(1).default('tickets'),
    /** What ids start with: `T` for `T-12`. */
    prefix: z
      .string()
      .regex(/^[A-Z][A-Z0-9]{0,9}$/, 'upper-case letters and digits, starting with a letter')
      .default('T'),
    /** Longest ticket text put in the context (bytes). */
    maxBytes: z
      .int()
      .min(1)
      .max(1024 * 1024)
      .default(16 * 1024),
  })
  .prefault({});

export type TicketsConfig = z.output<typeof TicketsConfigSchema>;

// A typed config (`defineConfig`) checks this section too: a typo in it fails `tsc`.
declare module 'yoi' {
  interface PluginConfigSections {
    /** yoi-plugin-tickets: where tickets live and what their ids look like. */
    tickets?: z.input<typeof TicketsConfigSchema>;
  }
}
