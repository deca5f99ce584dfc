/**
 * The error root: {@link io.lakestream.api.error.LakestreamException} and the {@link
 * io.lakestream.api.error.ErrorClass} names that every module's errors carry.
 */
package io.lakestream.api.error;
