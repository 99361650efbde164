import { onShutdown } from '@academy/kit';
import { startService } from '@academy/service';
import { readConfig } from './config.ts';
import { hoursBankService } from './service.ts';

const service = await startService(hoursBankService, readConfig());
onShutdown(service.ctx.logger, service.stop);
