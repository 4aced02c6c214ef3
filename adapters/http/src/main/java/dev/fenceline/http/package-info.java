/**
 * External HTTP APIs as Fenceline destinations (R7): one API call per business operation, sent
 * under one idempotency key, after a fenced intent is recorded ({@code FENCED_AT_INTENT}), or with
 * a fencing token the API checks itself (native mode).
 */
package dev.fenceline.http;
