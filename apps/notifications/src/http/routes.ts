import type { Express } from 'express';
import type { ServiceContext } from '@academy/service';
import type { Config } from '../config.ts';

export function registerRoutes(_app: Express, _ctx: ServiceContext<Config>): void {}
