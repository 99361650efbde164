import { onShutdown } from '@academy/kit';
import { startService } from '@academy/service';
import { readConfig } from './config.ts';
import { notificationsService } from './service.ts';

const service = await startService(notificationsService, readConfig());
onShutdown(service.ctx.logger, service.stop);
