export { loadConfig, ConfigError, env } from './config.ts';
export { AppError, BadRequestError, UnauthorizedError, ForbiddenError, NotFoundError, ConflictError, ServiceUnavailableError } from './errors.ts';
export { createLogger, type Logger } from './logger.ts';
export { createMetrics, type Metrics } from './metrics.ts';
export { runReadiness, readinessHttpStatus, ReadinessError, type ReadinessCheck, type ReadinessCheckResult, type ReadinessDetails, type ReadinessReport } from './health.ts';
export { createHttpApp, errorStyle, errorHandler, errorBody, toErrorResponse, requestId, requestFront, sendError, sendJson, REQUEST_ID_HEADER, OPERATIONAL_PATHS, type ErrorStyle, type HttpAppOptions } from './http.ts';
export { listen, portOf, closeServer, onShutdown, runMain } from './lifecycle.ts';
export { createRedis, createSocketIoRedis, redisReadiness, type RedisClientOptions } from './redis.ts';
export { idParam, readId } from './params.ts';
