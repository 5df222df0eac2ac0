export * from './orders';
export { loadOrders, loadOrder, type OrderLine, type OrdersPage, type OrderDetail } from './orders.server';
export { refundOrder, finishRefund, failRefund, reconcileRefunds, refundReported, registerRefundReconciler, REFUND_RECONCILE_AFTER_MS, type RefundOutcome, type RefundInput, type RefundStep } from './refunds.server';
