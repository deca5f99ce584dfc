/**
 * Pipeline E4, the gold job ({@link io.lakestream.pipelines.gold.OrdersGoldDaily}): the change data
 * feed of the silver orders table ({@link io.lakestream.pipelines.gold.SilverChanges} turns change
 * rows into {@link io.lakestream.pipelines.gold.OrderChange}s) -> orders count and amount per order
 * day in keyed state ({@link io.lakestream.pipelines.gold.DailyTotalsOperator}, {@link
 * io.lakestream.pipelines.gold.DailyTotals}) -> the Delta table {@code orders_gold_daily}, upserted
 * by one MERGE of absolute totals per epoch with {@code txn(appId, epoch)}, so a replayed epoch is
 * skipped.
 */
package io.lakestream.pipelines.gold;
