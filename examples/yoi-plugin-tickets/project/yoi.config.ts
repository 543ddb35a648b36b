// A project using the plugin: the built-ins, plus tickets from ./tickets with ids like T-12, and the ReadTicket tool.
import { defaultPlugins, defineConfig } from 'yoi';
import { ticketTool, tickets } from 'yoi-plugin-tickets';

export default defineConfig({
  plugins: [...defaultPlugins(), tickets(), ticketTool()],
  tickets: { dir: 'tickets', prefix: 'T' },
});
