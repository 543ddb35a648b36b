/**
 * Node flags for a pod process. A pod is long-lived and allocates in bursts (one object chain
 * per streamed token); with V8's default 16 MB semi-spaces its young generation swells by
 * ~35 MB during a long reply and the memory is not returned. 4 MB semi-spaces keep a
 * 100k-token run's growth near 20 MB at no measurable throughput cost (bench/slow-client,
 * bench/fanout). The `yoi` executable's shebang carries the same flag; processes that yoi
 * starts itself (`--detach`, SpawnPod children) get it from here.
 * @beta
 */
export const POD_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4'];
