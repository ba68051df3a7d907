import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';

/**
 * A WebSocket-to-TCP proxy like the one Neon runs in front of Postgres: each WebSocket carries
 * one Postgres connection, bytes relayed both ways. It lets the Neon driver reach a plain server.
 */
export async function startNeonWsProxy(target: { host: string; port: number }): Promise<{ address: string; close: () => Promise<void> }> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  server.on('connection', (socket) => {
    const tcp = net.connect(target.port, target.host);
    tcp.on('data', (chunk) => socket.send(chunk));
    tcp.on('close', () => socket.close());
    tcp.on('error', () => socket.terminate());
    socket.on('message', (data) => tcp.write(data as Buffer));
    socket.on('close', () => tcp.end());
    socket.on('error', () => tcp.destroy());
  });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
