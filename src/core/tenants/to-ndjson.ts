/**
 * Turns an export into NDJSON text: one JSON document per line, each line ending in `\n`
 * (JSON text holds no raw line break). Pulls one resource per line it gives, so a stream built
 * on it holds no more than the export does.
 *
 * @example
 * ```ts
 * import { createWriteStream } from 'node:fs';
 * import { Readable } from 'node:stream';
 * import { pipeline } from 'node:stream/promises';
 *
 * await pipeline(
 *   Readable.from(toNdjson(scim.tenants.export('district-42'))),
 *   createWriteStream('district-42.ndjson'),
 * );
 * ```
 */
export async function* toNdjson(documents: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const document of documents) yield `${JSON.stringify(document)}\n`;
}
