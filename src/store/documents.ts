/**
 * Uploaded documents (PDF files): the bytes that records only refer to (records.ts `DocumentRef`).
 *
 * Kept in memory per platform, addressed by the file's SHA-256, so one platform can never reach another's file
 * even with the same content, and a converted or duplicated contract shares its source's file. With a data file
 * (`--data state.json`) each file is also written beside it, `state.json.files/<platformId>/<sha256>.pdf`, each
 * replaced atomically (temporary file, fsync, rename) like the data file; in team mode, into the database
 * (postgres.ts); they are read back when the store opens.
 * The bytes are written before the record that refers to them, so a crash leaves at worst an unreferenced file.
 */
import { createHash } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { syncFolder } from './atomic-file.js';
import { getOrAdd } from '../core/maps.js';

/** A snapshot's documents: `"<platformId>/<sha256>"` → the file as base64. */
export type DocumentEntries = Record<string, string>;

/** Where the files are kept beside the memory: a folder beside the data file, or the team's database (postgres.ts). */
export interface DocumentFiles {
  load(): Promise<{ platformId: string; sha: string; bytes: Uint8Array }[]>;
  /** Resolves once the file is kept (before any record refers to it). */
  write(platformId: string, sha: string, bytes: Uint8Array): Promise<void>;
  removeAll(): Promise<void>;
  removePlatform(platformId: string): Promise<void>;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** An uploaded file and its address, its SHA-256 taken as it was read (http/upload.ts). */
export interface PdfFile {
  bytes: Uint8Array;
  sha256: string;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export class DocumentStore {
  private readonly files = new Map<string, Map<string, Uint8Array>>();
  /** Writes under way, by `<platformId>/<sha256>`: the same file uploaded twice at once is written once. */
  private readonly writing = new Map<string, Promise<void>>();

  private constructor(
    private readonly kept: DocumentFiles | undefined,
    /** The folder the files are kept in, with a data file. */
    readonly location: string | undefined,
  ) {}

  /** An in-memory store, or one kept beside `dataFile` or in `files` (the files read back now). */
  static async open(dataFile?: string, files?: DocumentFiles): Promise<DocumentStore> {
    const folder = dataFile ? `${dataFile}.files` : undefined;
    const store = new DocumentStore(files ?? (folder ? folderFiles(folder) : undefined), folder);
    for (const f of (await store.kept?.load()) ?? []) store.tenant(f.platformId).set(f.sha, f.bytes);
    return store;
  }

  /**
   * Keeps a file for a platform; answers its address (SHA-256, `sha` when the caller took it already). Resolves once
   * it is on disk when persistent.
   */
  async put(platformId: string, bytes: Uint8Array, sha = sha256Hex(bytes)): Promise<string> {
    const own = this.tenant(platformId);
    if (own.has(sha)) return sha;
    if (this.kept) {
      const id = `${platformId}/${sha}`;
      let write = this.writing.get(id);
      if (!write) {
        write = this.kept.write(platformId, sha, bytes).finally(() => this.writing.delete(id));
        this.writing.set(id, write);
      }
      await write;
    }
    this.tenant(platformId).set(sha, bytes);
    return sha;
  }

  /** A platform's file, or undefined: another platform's file with the same address is not found. */
  get(platformId: string, sha: string): Uint8Array | undefined {
    return this.files.get(platformId)?.get(sha);
  }

  /** Every file, base64, for a snapshot; `keep` limits it to the files records still refer to. */
  entries(keep?: (platformId: string, sha: string) => boolean): DocumentEntries {
    const out: DocumentEntries = {};
    for (const [platformId, own] of this.files) {
      for (const [sha, bytes] of own)
        if (!keep || keep(platformId, sha)) out[`${platformId}/${sha}`] = Buffer.from(bytes).toString('base64');
    }
    return out;
  }

  /** Reads snapshot entries back, checking each address against its content; answers the wrong entries. */
  static decode(entries: DocumentEntries): {
    files: { platformId: string; sha: string; bytes: Uint8Array }[];
    errors: { path: string; message: string }[];
  } {
    const files: { platformId: string; sha: string; bytes: Uint8Array }[] = [];
    const errors: { path: string; message: string }[] = [];
    for (const [name, base64] of Object.entries(entries)) {
      const slash = name.lastIndexOf('/');
      const platformId = name.slice(0, slash);
      const sha = name.slice(slash + 1);
      if (slash <= 0 || !SHA256.test(sha) || typeof base64 !== 'string') {
        errors.push({ path: `documents.${name}`, message: 'Must be "<platformId>/<sha256>": "<base64 of the file>"' });
        continue;
      }
      const bytes = new Uint8Array(Buffer.from(base64, 'base64'));
      if (sha256Hex(bytes) !== sha) {
        errors.push({ path: `documents.${name}`, message: 'The file does not match its SHA-256' });
        continue;
      }
      files.push({ platformId, sha, bytes });
    }
    return { files, errors };
  }

  /** Replaces every file (restore, full reset). */
  async replace(files: { platformId: string; sha: string; bytes: Uint8Array }[]): Promise<void> {
    this.files.clear();
    await this.kept?.removeAll();
    for (const f of files) await this.put(f.platformId, f.bytes);
  }

  /** Drops one platform's files (per-tenant reset). */
  async clearPlatform(platformId: string): Promise<void> {
    this.files.delete(platformId);
    await this.kept?.removePlatform(platformId);
  }

  private tenant(platformId: string): Map<string, Uint8Array> {
    return getOrAdd(this.files, platformId, () => new Map());
  }
}

/** Platform ids are letters and digits; anything else is escaped so it cannot leave the folder. */
function safeName(platformId: string): string {
  return encodeURIComponent(platformId).replace(/\./g, '%2E');
}

async function writeFileAtomically(folder: string, name: string, tmpName: string, bytes: Uint8Array): Promise<void> {
  await mkdir(folder, { recursive: true });
  const tmp = join(folder, tmpName);
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, join(folder, name));
  await syncFolder(folder);
}

/** Files beside the data file: `<file>.files/<platformId>/<sha256>.pdf`, each written atomically. */
function folderFiles(folder: string): DocumentFiles {
  let writes = 0;
  return {
    async load() {
      const out: { platformId: string; sha: string; bytes: Uint8Array }[] = [];
      let platforms: string[];
      try {
        platforms = await readdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return out;
        throw error;
      }
      for (const dir of platforms) {
        const platformId = decodeURIComponent(dir);
        for (const name of await readdir(join(folder, dir)).catch(() => [] as string[])) {
          const sha = name.replace(/\.pdf$/, '');
          if (!SHA256.test(sha) || !name.endsWith('.pdf')) continue; // temporary files of an interrupted write
          const bytes = new Uint8Array(await readFile(join(folder, dir, name)));
          if (sha256Hex(bytes) === sha) out.push({ platformId, sha, bytes });
        }
      }
      return out;
    },
    write(platformId, sha, bytes) {
      // Each write its own temporary file name, so concurrent writes never rename one another's file.
      const tmp = `${sha}.pdf.${process.pid}.${++writes}.tmp`;
      return writeFileAtomically(join(folder, safeName(platformId)), `${sha}.pdf`, tmp, bytes);
    },
    removeAll: () => rm(folder, { recursive: true, force: true }),
    removePlatform: (platformId) => rm(join(folder, safeName(platformId)), { recursive: true, force: true }),
  };
}
