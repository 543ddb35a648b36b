// How a project would enable the example: keep the built-ins, add the plugin.
// In your own project: import { defineConfig, defaultPlugins } from 'yoi';
import { defaultPlugins, defineConfig } from '../../index.js';
import { envResolver } from './envResolver.js';

export default defineConfig({
  plugins: [...defaultPlugins(), envResolver({ allow: ['NODE_ENV', 'CI', 'PUBLIC_*'] })],
});
