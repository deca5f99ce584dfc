/**
 * A real browser for tests of lakestream's web pages: Debian's headless chromium, installed by the
 * test itself when missing, with every request that would leave the loopback interface caught and
 * recorded.
 */
package io.lakestream.testkit.browser;
