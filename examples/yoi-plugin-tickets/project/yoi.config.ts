// A project using the plugin: the built-ins, plus tickets from ./tickets with ids like T-12.
import { defaultPlugins, defineConfig } from 'yoi';
import { tickets } from 'yoi-plugin-tickets';

export default defineConfig({
  plugins: [...defaultPlugins(), tickets()],
  tickets: { dir: 'tickets', prefix: 'T' },
});
