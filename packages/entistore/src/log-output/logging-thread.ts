/**
 * @module The logging thread's script (a worker thread's entry): runs log-thread.ts's loop over
 * the ring it is handed.
 */
import { workerData } from 'node:worker_threads'
import { runLogThread, type LogThreadData } from './log-thread.js'

void runLogThread(workerData as LogThreadData)
