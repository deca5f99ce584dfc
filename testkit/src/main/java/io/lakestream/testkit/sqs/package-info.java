/**
 * A real SQS-API server for tests ({@link io.lakestream.testkit.sqs.SqsServer}, {@link
 * io.lakestream.testkit.sqs.SqsServerExtension}): ElasticMQ in this JVM on 127.0.0.1, in memory;
 * received messages stay hidden for the visibility timeout and come back unless deleted, as on AWS.
 */
package io.lakestream.testkit.sqs;
