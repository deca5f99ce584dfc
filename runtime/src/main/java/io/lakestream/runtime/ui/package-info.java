/**
 * The query page: Spark's Streaming tab for lakestream queries, served by the JVM on 127.0.0.1
 * ({@link io.lakestream.runtime.ui.QueryPage}). It reads what runs leave in their checkpoint
 * locations ({@code metadata}, {@code progress/N}, the lease), so it shows finished queries as well
 * as running ones; {@code lakestream ui} serves it for given locations and every embedded run
 * serves it for its own. The browser side is static files in this package's resources: a page and a
 * small SVG chart renderer, nothing fetched from anywhere but the page's own server.
 */
package io.lakestream.runtime.ui;
