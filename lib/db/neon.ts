import { neonConfig, Pool } from '@neondatabase/serverless';
import ws from 'ws';

/**
 * Neon speaks Postgres over WebSockets. `NEON_WS_PROXY` (host:port/path) points the driver at a
 * plain WebSocket-to-TCP proxy, which lets the same code path run against any Postgres.
 */
export async function configureNeon(env: NodeJS.ProcessEnv = process.env): Promise<{ Pool: typeof Pool }> {
  neonConfig.webSocketConstructor = ws;
  const proxy = env.NEON_WS_PROXY?.trim();
  if (proxy) {
    neonConfig.wsProxy = () => proxy;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineConnect = false;
    neonConfig.pipelineTLS = false;
  }
  return { Pool };
}
