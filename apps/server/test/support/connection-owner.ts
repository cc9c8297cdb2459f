import { readdir, readFile, readlink } from 'node:fs/promises';

/**
 * Which of `pids` holds the end of an open IPv4 TCP connection whose own port is `localPort` and whose peer's
 * port is `peerPort`; undefined when none of them does or the connection has closed. A receiver on loopback
 * asks it while a request is still open, with the request's remote port as `localPort` and its own port as
 * `peerPort`, to learn which server process sent the request: nothing in the request itself says so.
 *
 * Linux only: it reads the kernel's connection table (/proc/net/tcp) for the socket's inode, then finds the
 * process with a file descriptor linked to that socket.
 */
export async function findConnectionOwner(
  localPort: number,
  peerPort: number,
  pids: readonly number[],
): Promise<number | undefined> {
  const inode = socketInode(await readFile('/proc/net/tcp', 'utf8'), localPort, peerPort);
  if (inode === undefined) return undefined;
  const link = `socket:[${inode}]`;
  for (const pid of pids) {
    if (await holdsLink(pid, link)) return pid;
  }
  return undefined;
}

/**
 * The inode of the socket listed in `table` (/proc/net/tcp) from `localPort` to `peerPort`. Only the ports are
 * compared: the addresses are all loopback here, and the table writes them in the host's byte order.
 */
function socketInode(table: string, localPort: number, peerPort: number): string | undefined {
  for (const line of table.split('\n').slice(1)) {
    // sl, local address:port, remote address:port, state, queues, timers, retransmits, uid, timeout, inode.
    const [, local, remote, , , , , , , inode] = line.trim().split(/\s+/);
    if (local === undefined || remote === undefined || inode === undefined) continue;
    if (hexPort(local) === localPort && hexPort(remote) === peerPort) return inode;
  }
  return undefined;
}

function hexPort(addressAndPort: string): number {
  return Number.parseInt(addressAndPort.split(':')[1] ?? '', 16);
}

/** True when one of `pid`'s file descriptors links to `link`; false too when the process has gone. */
async function holdsLink(pid: number, link: string): Promise<boolean> {
  let descriptors: string[];
  try {
    descriptors = await readdir(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  for (const descriptor of descriptors) {
    // A descriptor closed between the listing and this read simply is not the one.
    const target = await readlink(`/proc/${pid}/fd/${descriptor}`).catch(() => '');
    if (target === link) return true;
  }
  return false;
}
