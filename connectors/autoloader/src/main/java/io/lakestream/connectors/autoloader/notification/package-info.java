/**
 * File notification mode ({@code cloudFiles.useNotifications}): new files come from the S3 event
 * notifications in an SQS queue ({@link
 * io.lakestream.connectors.autoloader.notification.S3EventQueue}, configured by {@link
 * io.lakestream.connectors.autoloader.notification.NotificationSettings}; message bodies parsed by
 * {@link io.lakestream.connectors.autoloader.notification.S3EventMessage}) instead of incremental
 * listings. A message stays in the queue until the checkpoint holding its files completed, so a
 * query that dies first gets it again; SQS failures are {@code IOException}s naming the queue,
 * never the credentials. Without a given queue, {@link
 * io.lakestream.connectors.autoloader.notification.NotificationResources} sets up the query's
 * queue, the bucket's notification and, with {@code cloudFiles.useSns}, an SNS topic between them.
 */
package io.lakestream.connectors.autoloader.notification;
