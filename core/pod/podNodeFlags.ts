/**
 * Node flags for a pod process. A pod is long-lived and allocates in bursts (one object chain
 * per streamed token); with V8's default 16 MB semi-spaces its young generation swells by
 * ~35 MB during a long reply and the memory is not returned. 4 MB semi-spaces keep a
 * 100k-token run's growth near 20 MB at no measurable throughput cost (bench/slow-client,
 * bench/fanout). GC runs on the main thread (`--single-threaded-gc`): on a busy machine a
 * parallel scavenge waits for helper threads that are not scheduled (single scavenges of 60 ms
 * during a pod's start at load ~7, 1–5 ms without helpers), and a pod's heap is small enough
 * that helpers gain nothing. The `yoi` executable's shebang carries the same flags; processes
 * that yoi starts itself (`--detach`, SpawnPod children) get them from here.
 * @beta
 */
export const POD_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--single-threaded-gc'];
