import { stopInfra, type ServerName } from '@academy/infra';

export default async function globalTeardown(): Promise<void> {
  const started = (globalThis as { systemInfraStarted?: ServerName[] }).systemInfraStarted ?? [];
  if (started.length) await stopInfra('test', started);
}
