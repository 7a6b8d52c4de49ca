import type { FastifyRequest } from 'fastify';
import { currentUser } from '../../plugins/access.js';
import type { AuthenticatedUser } from '../auth/session-service.js';
import type { Client } from './activity-recorder.js';

/**
 * The client of a request as the activity trail records it: the address Fastify resolved through
 * TRUST_PROXY (the one the login throttle counts), and the user agent as sent (the recorder caps it).
 */
export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
}

/** The caller of a route that requires a token, with their client: who the activity trail names. */
export function actorOf(request: FastifyRequest): AuthenticatedUser & Client {
  return { ...currentUser(request), ...clientOf(request) };
}
