import net from 'node:net';

/**
 * A loopback server speaking just enough of PostgreSQL's wire protocol to refuse every connection
 * as a server does that lacks the database asked for: the startup message's `database` answered
 * with the FATAL error 3D000, as PostgreSQL words it.
 */
export async function startMissingDatabaseServer(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer((socket) => {
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 4 || received.length < received.readInt32BE(0)) return;
      // After the length and protocol version: name and value pairs, each ended by a zero byte.
      const pairs = received.subarray(8, received.readInt32BE(0)).toString('utf8').split('\0');
      const database = pairs[pairs.indexOf('database') + 1] ?? pairs[pairs.indexOf('user') + 1] ?? '';
      const fields = [['S', 'FATAL'], ['V', 'FATAL'], ['C', '3D000'], ['M', `database "${database}" does not exist`]];
      const body = Buffer.concat([...fields.map(([type, text]) => Buffer.from(`${type}${text}\0`, 'utf8')), Buffer.from([0])]);
      const header = Buffer.alloc(5);
      header.write('E', 0);
      header.writeInt32BE(body.length + 4, 1);
      socket.end(Buffer.concat([header, body]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
