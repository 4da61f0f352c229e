/**
 * Replacing a file so that it is never seen half-written, even across a crash or power loss: write a temporary
 * file, fsync it, rename it over the target, fsync the folder (so the rename itself is durable). Plain fs, so
 * the compaction worker can use it without loading lowdb.
 */
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function replaceFile(file: string, tmp: string, text: string): Promise<void> {
  const handle = await open(tmp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
  await syncFolder(dirname(file));
}

export async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open or fsync a folder; the rename is still atomic there.
  }
}
