// Which operations reach a node of an OpenAPI document. `redocly diff` walks the document once and reports
// a change inside a shared component (components/schemas/X, or a split file such as
// components/schemas/Pricing.yaml) under the first operation it reached it through, only once. This walks
// every operation through every $ref (across files) so a change can name every operation it affects.
import { getPointer, unescapePointerSegment } from '../../src/contract/json-pointer.js';
import { HTTP_METHODS, pointerSegment } from '../generate/names.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import YAML from 'yaml';

type Json = any;


/** A place in a file: absolute file name and a JSON pointer (`#`, `#/components/schemas/Order`). */
interface Place {
  file: string;
  pointer: string;
}

const decode = unescapePointerSegment;
const child = (pointer: string, key: string) => `${pointer}/${pointerSegment(key)}`;
/** True when `pointer` is `root` or lies below it. */
const within = (pointer: string, root: string) => pointer === root || pointer.startsWith(`${root}/`);

export interface OperationUsage {
  /** Every operation (`GET /orders`) whose description reaches the node at file#pointer, sorted. */
  operationsAt(file: string, pointer: string): string[];
  /**
   * What holds the node, and the pointer of that holder in the node's file: the operation when the node
   * lies inside one operation's own description, else the component (`components/schemas/Order`) or the
   * split file (`components/schemas/Pricing.yaml`, relative to the document's folder).
   */
  ownerOf(file: string, pointer: string): { name: string; pointer: string };
  /** Every operation's label (`GET /orders`) with its operationId, when it has one. */
  operationIds: Record<string, string>;
}

export async function operationUsage(rootFile: string): Promise<OperationUsage> {
  const root = path.resolve(rootFile);
  const texts = new Map<string, Promise<Json>>();
  const load = (file: string): Promise<Json> => {
    if (!texts.has(file)) {
      texts.set(
        file,
        readFile(file, 'utf8').then(
          (text) => YAML.parse(text),
          (error: Error) => {
            throw new Error(`${file}: cannot read a file the document refers to (${error.message})`);
          },
        ),
      );
    }
    return texts.get(file)!;
  };
  const resolvePointer = (doc: Json, pointer: string): Json => getPointer(doc, pointer) as Json;

  /** Where a $ref written in `from` points. */
  const target = (ref: string, from: string): Place => {
    const [filePart, fragment = ''] = ref.split('#');
    const file = filePart ? path.resolve(path.dirname(from), decodeURI(filePart)) : from;
    return { file, pointer: `#${fragment}`.replace(/\/$/, '') };
  };

  /** Every place an operation's description is made of: its own node and each $ref target, transitively. */
  async function reach(start: Place[]): Promise<Place[]> {
    const seen = new Set<string>();
    const places: Place[] = [];
    const visit = async (place: Place): Promise<void> => {
      const key = `${place.file}${place.pointer}`;
      if (seen.has(key)) return;
      seen.add(key);
      places.push(place);
      await walk(resolvePointer(await load(place.file), place.pointer), place.file);
    };
    const walk = async (node: Json, file: string): Promise<void> => {
      if (!node || typeof node !== 'object') return;
      if (typeof node.$ref === 'string') await visit(target(node.$ref, file));
      for (const value of Object.values(node)) await walk(value, file);
    };
    for (const place of start) await visit(place);
    return places;
  }

  const doc = await load(root);
  const operations: { label: string; own: Place; places: Place[]; operationId?: string }[] = [];
  const pathItems: { label: string; place: Place }[] = [];
  for (const [section, suffix] of [['paths', ''], ['webhooks', ' (webhook)']] as const) {
    for (const [name, item] of Object.entries<Json>(doc?.[section] ?? {})) {
      // A path item may live in its own file (`$ref: paths/orders.yaml`): its operations are there.
      let itemPlace: Place = { file: root, pointer: child(child('#', section), name) };
      let itemNode = item;
      if (typeof item?.$ref === 'string') {
        itemPlace = target(item.$ref, root);
        itemNode = resolvePointer(await load(itemPlace.file), itemPlace.pointer);
      }
      pathItems.push({ label: `${name}${suffix}`, place: itemPlace });
      for (const method of HTTP_METHODS) {
        if (!itemNode?.[method]) continue;
        const own = { file: itemPlace.file, pointer: child(itemPlace.pointer, method) };
        // Path-level parameters belong to every operation of the path.
        const shared = itemNode.parameters ? [{ file: itemPlace.file, pointer: child(itemPlace.pointer, 'parameters') }] : [];
        const operationId = typeof itemNode[method].operationId === 'string' ? (itemNode[method].operationId as string) : undefined;
        operations.push({ label: `${method.toUpperCase()} ${name}${suffix}`, own, places: await reach([own, ...shared]), operationId });
      }
    }
  }

  return {
    operationIds: Object.fromEntries(operations.filter((op) => op.operationId).map((op) => [op.label, op.operationId!])),
    operationsAt(file, pointer) {
      const abs = path.resolve(file);
      return operations
        // Inside what the operation is made of, or around the operation itself (a path item added or removed whole).
        .filter((op) => op.places.some((p) => p.file === abs && within(pointer, p.pointer)) || (pointer !== '#' && op.own.file === abs && within(op.own.pointer, pointer)))
        .map((op) => op.label)
        .sort();
    },
    ownerOf(file, pointer) {
      const abs = path.resolve(file);
      const own = operations.find((op) => op.own.file === abs && within(pointer, op.own.pointer));
      if (own) return { name: own.label, pointer: own.own.pointer };
      // Path-level parts (shared parameters, servers) belong to the path item, wherever its file is.
      const item = pathItems.find((p) => p.place.file === abs && within(pointer, p.place.pointer));
      if (item) return { name: item.label, pointer: item.place.pointer };
      const segments = pointer.split('/').slice(1);
      if (abs !== root) return { name: path.relative(path.dirname(root), abs), pointer: '#' };
      const depth = segments[0] === 'components' ? 3 : segments[0] === 'paths' || segments[0] === 'webhooks' ? 2 : 1;
      const held = segments.slice(0, depth);
      const name = segments[0] === 'paths' && held[1] ? decode(held[1]) : held.map(decode).join('/') || '(root)';
      return { name, pointer: ['#', ...held].join('/') };
    },
  };
}
