/**
 * The only place delta-core touches Delta Kernel's internals ({@code io.delta.kernel.internal.*}
 * and {@code io.delta.kernel.defaults.internal.*}): each type here wraps one internal class, says
 * which, and why Kernel's public API is not enough for what delta-core does with it. Everything
 * else in delta-core uses Kernel's public API and these types ({@code
 * KernelInternalsConfinementTest} fails the build otherwise), so a Kernel upgrade that moves an
 * internal breaks only this package.
 *
 * <p>Public only because delta-core's other packages call it; it is {@link
 * io.lakestream.api.annotation.Internal} to lakestream and not for users or the Flink connector.
 */
package io.lakestream.connectors.delta.kernel;
