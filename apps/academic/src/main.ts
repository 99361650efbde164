import { onShutdown } from '@academy/kit';
import { startService } from '@academy/service';
import { readConfig } from './config.ts';
import { academicService } from './service.ts';

const service = await startService(academicService, readConfig());
onShutdown(service.ctx.logger, service.stop);
