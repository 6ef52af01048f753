import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PGlite database every test starts from (see template.ts), made once per run. */
    pgliteTemplate: { readonly dir: string; readonly tarball: string };
  }
}

/**
 * Creates one empty PGlite database for the whole run, as a data folder and as a tarball of
 * it. A new PGlite database runs initdb, which costs seconds (tens on a busy machine); the
 * tests copy or load this one instead, and each still gets a database of its own.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'scimkit-pglite-template-'));
  const dir = join(root, 'pglite');
  const db = await PGlite.create(dir);
  const dump = await db.dumpDataDir('none');
  await db.close();
  const tarball = join(root, 'pglite.tar');
  writeFileSync(tarball, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', { dir, tarball });
  return () => rmSync(root, { recursive: true, force: true });
}
