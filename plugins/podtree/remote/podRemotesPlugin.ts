import { PodRemotes, PodRemotesService } from './PodRemotes.js';
import { PodTreeConfigSchema } from './PodRemotesSchema.js';
import { definePlugin } from '../../../core/api.js';

export const POD_REMOTES = 'yoi:pod-remotes';

declare module '../../../core/config/YoiConfigSchema.js' {
  interface PluginConfigSections {
    /** Pods the pod tools may address by name or `ws(s)://` URL, each with the env variable holding its token. */
    podtree?: import('zod').input<typeof PodTreeConfigSchema>;
  }
}

/**
 * `podtree.remotes`: pods listening on WebSockets (`yoi pod start --listen`) elsewhere that
 * SendToPod, ReadPodOutput, StopPod and ListPods may reach. Only these: a URL the config does not
 * list is refused, and each remote's token comes from the environment variable it names.
 */
export const podRemotes = definePlugin({
  name: POD_REMOTES,
  config: { key: 'podtree', schema: PodTreeConfigSchema },
  apply(api) {
    api.provide(PodRemotesService, new PodRemotes(api.config?.remotes ?? {}, api.project.projectDir));
  },
});
