/** IBO commissions: the pure rules, the ledger's reads, rates and payouts, and the statements. */
export * from './commissions';
export { loadCommissionRates, setCommissionRate, payableIbos, recentPayouts, recordPayout, iboSales, iboCommissionTotals, iboStatement, SALES_PAGE_SIZE, type KindRate, type RateChange, type PayableIbo, type PayoutLine, type PayoutOutcome, type PayoutRefusal, type Sale, type SaleLine, type SalesPage } from './commissions.server';
