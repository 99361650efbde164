import type { Server } from 'node:http';
import { closeServer, createHttpApp, createLogger, createMetrics, listen, portOf } from '@academy/kit';
import type { Config } from './config.ts';

export interface RunningGateway {
  server: Server;
  port: number;
  url: string;
  stop: () => Promise<void>;
}

/** The front door: authenticates and proxies `/api/*` and `/socket.io` to the services. */
export async function startGateway(config: Config): Promise<RunningGateway> {
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const metrics = createMetrics('gateway');
  const app = createHttpApp({ logger, metrics, readiness: [], routes: () => {} });
  const server = await listen(app, config.PORT, config.HOST);
  const port = portOf(server);
  logger.info({ port }, 'gateway listening');
  return { server, port, url: `http://127.0.0.1:${port}`, stop: () => closeServer(server) };
}
