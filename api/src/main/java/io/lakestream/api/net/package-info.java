/**
 * Network plumbing every module may share (the runtime's embedded servers, the test kit's
 * services): {@link io.lakestream.api.net.LoopbackPorts}.
 */
package io.lakestream.api.net;
