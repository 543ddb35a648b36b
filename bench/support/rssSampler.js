// A child process of bench/peers.js that samples the summed RSS of process trees every 5 ms,
// off the bench's own event loop (which times stdout). stdin: one root pid per line to add;
// a line `end` prints the peak in bytes and exits.
import readline from 'node:readline';
import { treeRss } from './treeRss.js';

const roots = [];
let peak = 0;
const sample = () => {
  if (roots.length) peak = Math.max(peak, treeRss(roots));
};
const timer = setInterval(sample, 5);
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line.trim() === 'end') break;
  if (/^\d+$/.test(line.trim())) {
    roots.push(Number(line));
    sample();
  }
}
clearInterval(timer);
process.stdout.write(`${peak}\n`);
