/**
 * Node flags for a pod process. A pod is long-lived and allocates in bursts (one object chain
 * per streamed token); with V8's default 16 MB semi-spaces its young generation swells by
 * ~35 MB during a long reply and the memory is not returned. 2 MB semi-spaces keep a
 * 100k-token run's growth near 20 MB and an idle pod ~2 MB smaller at no measurable throughput
 * cost (bench/slow-client, bench/fanout). GC runs on the main thread (`--single-threaded-gc`): on
 * a busy machine a parallel scavenge waits for helper threads that are not scheduled (single
 * scavenges of 60 ms during a pod's start at load ~7, 1–5 ms without helpers), and a pod's heap
 * is small enough that helpers gain nothing. Four times V8's interrupt budget: a start's
 * run-once code (module set-up, zod's schema constructors) no longer reaches TurboFan, whose
 * compiles competed with the start for the CPU and left ~5 MB resident in an idle pod, while
 * the code a pod runs all the time still gets there in its first milliseconds. WebAssembly stays
 * on Liftoff, V8's baseline compiler (`--liftoff-only`): the one module a pod runs is Node's HTTP
 * parser (llhttp, under `fetch`), whose tier-up to TurboFan on a helper thread left ~8 MiB
 * resident in a pod on an HTTP provider after its first reply (73.4 → 65.3 MiB idle), for
 * parsing a provider's stream that costs no measurable time on Liftoff. The `yoi`
 * executable's shebang carries the same flags; processes that yoi starts itself (`--detach`,
 * SpawnPod children) get them from here.
 * @beta
 */
export const POD_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=2',
  '--single-threaded-gc',
  '--interrupt-budget=270336',
  '--liftoff-only',
];
