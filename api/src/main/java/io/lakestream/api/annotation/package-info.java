/**
 * API stability markers: {@link io.lakestream.api.annotation.PublicEvolving} for what users build
 * on, {@link io.lakestream.api.annotation.Experimental} for new user API, {@link
 * io.lakestream.api.annotation.Internal} for what is public only between lakestream's modules.
 */
package io.lakestream.api.annotation;
