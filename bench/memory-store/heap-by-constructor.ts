/**
 * Sums a heap snapshot (from `footprint.ts --snapshot`) by node type and constructor name, and
 * prints the largest groups as count and bytes per user: what each user's bytes are made of.
 * Strings are grouped by kind (flat, concatenated, sliced), not by their text.
 *
 * Run: `node --max-old-space-size=8192 --import tsx bench/memory-store/heap-by-constructor.ts FILE USERS`
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  readonly snapshot: { readonly meta: { node_fields: string[]; node_types: [string[]] } };
  readonly nodes: number[];
  readonly strings: string[];
}

const [file, usersArg] = process.argv.slice(2);
if (!file || !usersArg) throw new Error('usage: heap-by-constructor.ts FILE USERS');
const users = Number(usersArg);
const { snapshot, nodes, strings } = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
const fields = snapshot.meta.node_fields;
const types = snapshot.meta.node_types[0];
const width = fields.length;
const typeAt = fields.indexOf('type');
const nameAt = fields.indexOf('name');
const sizeAt = fields.indexOf('self_size');

const groups = new Map<string, { count: number; bytes: number }>();
let total = 0;
for (let i = 0; i < nodes.length; i += width) {
  const type = types[nodes[i + typeAt] as number] as string;
  const size = nodes[i + sizeAt] as number;
  const name = strings[nodes[i + nameAt] as number] as string;
  const key = type.includes('string') || type === 'number' ? type : `${type} ${name.slice(0, 60)}`;
  const group = groups.get(key) ?? { count: 0, bytes: 0 };
  group.count += 1;
  group.bytes += size;
  groups.set(key, group);
  total += size;
}

console.log(`${file}: ${(total / users).toFixed(0)} B per user in all (${users} users)\n`);
console.log('| type and constructor | count ÷ users | bytes ÷ users |');
console.log('|---|---:|---:|');
for (const [key, { count, bytes }] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes)) {
  if (bytes / users < 4) break;
  console.log(`| ${key} | ${(count / users).toFixed(2)} | ${(bytes / users).toFixed(0)} |`);
}
