/**
 * Plain-fs helpers of the data file.
 *
 * Replacing a file so that it is never seen half-written, even across a crash or power loss: write a temporary
 * file, fsync it, rename it over the target, fsync the folder (so the rename itself is durable).
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Replaces `file` with the text of `chunks`, each written as it comes; resolves to the bytes written. */
export async function replaceFile(file: string, tmp: string, chunks: AsyncIterable<string>): Promise<number> {
  const handle = await open(tmp, 'w');
  let bytes = 0;
  try {
    for await (const chunk of chunks) {
      const encoded = Buffer.from(chunk, 'utf8');
      // A handle's writeFile writes from where the last write ended, and all of it (write() may write less).
      await handle.writeFile(encoded);
      bytes += encoded.length;
    }
    await handle.sync();
  } catch (error) {
    // Chunks are made while they are written: a failure leaves part of a file, which nothing would remove.
    await handle.close();
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(tmp, file);
  await syncFolder(dirname(file));
  return bytes;
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

/** A file's text, or undefined when it does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
