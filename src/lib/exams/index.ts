export * from './exams';
