import { cpSync, readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';

// A new PGlite database runs initdb: seconds, tens of seconds on a busy machine, and most of
// what a PGlite test costs. The run's global setup (global-setup.ts) makes one empty database;
// these helpers give each test a copy of it, as independent as one made from nothing. Under a
// configuration without that setup they make the database from nothing.

let tarball: Blob | undefined;

/** The empty database, as the tarball PGlite loads; undefined without the global setup. */
function templateTarball(): Blob | undefined {
  const template = inject('pgliteTemplate');
  if (template === undefined) return undefined;
  tarball ??= new Blob([readFileSync(template.tarball)]);
  return tarball;
}

/** Opens a new, empty in-memory PGlite database. */
export async function createPglite(): Promise<PGlite> {
  const loadDataDir = templateTarball();
  return loadDataDir === undefined ? PGlite.create() : PGlite.create({ loadDataDir });
}

/**
 * Puts a copy of the empty database at `dir` (which must not exist yet) and answers true, or,
 * without the global setup, answers false and leaves `dir` for PGlite to create at its first
 * open.
 */
export function copyPgliteTemplate(dir: string): boolean {
  const template = inject('pgliteTemplate');
  if (template === undefined) return false;
  cpSync(template.dir, dir, { recursive: true });
  return true;
}

/**
 * Makes `dir` (which must not exist yet) an empty PGlite data folder, as a process opening it
 * with `PGlite.create(dir)` finds it after its first start.
 */
export async function createPgliteFolder(dir: string): Promise<void> {
  if (!copyPgliteTemplate(dir)) await (await PGlite.create(dir)).close();
}
