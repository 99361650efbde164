import { onShutdown, runMain } from '@academy/kit';
import { startService } from '@academy/service';
import { readConfig } from './config.ts';
import { payslipsService } from './service.ts';

await runMain(async () => {
  const service = await startService(payslipsService, readConfig());
  onShutdown(service.ctx.logger, service.stop);
});
