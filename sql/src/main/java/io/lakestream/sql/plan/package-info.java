/**
 * The restart matrix of SQL queries, read from Flink's compiled plan JSON without Flink: which exec
 * nodes keep state, what their state depends on (keys, aggregates, stored rows, state TTL), the
 * stable uids the statements' operators get, and the comparison of a stored plan with a new one
 * ({@link io.lakestream.sql.plan.SqlRestartCompatibility}).
 */
package io.lakestream.sql.plan;
