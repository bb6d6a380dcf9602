import { Socket } from 'node:net';

/** Runs `action` and answers it along with how many writes (system calls) `socket` made meanwhile. */
export async function countSocketWrites<T>(socket: Socket, action: () => Promise<T>): Promise<{ result: T; writes: number }> {
  const write = jest.spyOn(Socket.prototype, '_write' as never);
  const writev = jest.spyOn(Socket.prototype, '_writev' as never);
  try {
    const result = await action();
    const writes = [...write.mock.contexts, ...writev.mock.contexts].filter((context) => context === socket).length;
    return { result, writes };
  } finally {
    write.mockRestore();
    writev.mockRestore();
  }
}
