import { Pool } from 'pg';

/** A connection of its own LISTENing on a channel (see listenOn). */
export interface Listening {
  /** Stops listening: the connection is destroyed, not UNLISTENed and handed to someone else. */
  drop(): void;
}

/**
 * Checks a connection out of `pool` for LISTEN `channel`. `onNotification` runs on each
 * NOTIFY; `onLost` runs once if the connection fails or ends. The connection is released (destroyed)
 * at most once whatever comes first: `drop()`, a connection error, or a failed LISTEN (which
 * throws). pg-pool throws on a second release, and an error event can follow a failed LISTEN.
 */
export async function listenOn(pool: Pool, channel: string, onNotification: () => void, onLost: () => void): Promise<Listening> {
  const client = await pool.connect();
  let dropped = false;
  const drop = () => {
    if (dropped) return;
    dropped = true;
    client.removeAllListeners('notification');
    client.release(true);
  };
  client.on('notification', onNotification);
  const lost = () => {
    if (dropped) return;
    drop();
    onLost();
  };
  // Stays attached after the release: an error event without a listener would crash the process.
  client.on('error', lost);
  // A server that shuts down (or restarts) may end the connection without an error event first;
  // the LISTEN is gone with it either way, and the caller listens again.
  client.on('end', lost);
  try {
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    drop();
    throw error;
  }
  return { drop };
}
