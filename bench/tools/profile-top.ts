// npx tsx bench/tools/profile-top.ts <file.cpuprofile> [n] [filter]
// Reads a V8 CPU profile (node --cpu-prof) and prints the functions with the most self time and the most
// total (inclusive) time, each with its file and line, so a profile can be read without DevTools.
// `filter` keeps only frames whose URL contains it in the inclusive list (e.g. "workbench/").
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}

const [file, nArg, filter] = process.argv.slice(2);
if (!file) {
  console.error('profile-top: no profile given; run: npx tsx bench/tools/profile-top.ts <file.cpuprofile> [n] [url filter]');
  process.exit(2);
}
const n = Number(nArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[] };
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const c of node.children ?? []) parent.set(c, node.id);

// Sample time per node from timeDeltas (more exact than hitCount x interval).
const selfUs = new Map<number, number>();
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const key = (node: Node) => `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^file:\/\/.*?\/(node_modules|workbench|src|bench|conformance|generated)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  self.set(key(node), (self.get(key(node)) ?? 0) + us);
  // Each function counted once per stack, however often it recurses.
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const k = key(byId.get(cur)!);
    if (seen.has(k)) continue;
    seen.add(k);
    inclusive.set(k, (inclusive.get(k) ?? 0) + us);
  }
}
const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`;
console.log(`total ${(total / 1000).toFixed(0)} ms sampled`);
console.log('--- self');
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(pct(us), k);
console.log('--- inclusive' + (filter ? ` (${filter})` : ''));
for (const [k, us] of [...inclusive].filter(([k]) => !filter || k.includes(filter)).sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(pct(us), k);
