import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http'
import { createServer as createSocketServer } from 'node:net'
import { setTimeout as delay } from 'node:timers/promises'
import { serve as serveHttp } from '@hono/node-server'
import pino, { type Logger } from 'pino'
import { systemClock } from '../clock'
import { shellWord } from '../config/bin-path'
import { DEFAULT_POLICY_FILE, loadPolicy } from '../config/load-policy'
import { loadTokens, TokensFileError, type TokenTable } from '../config/load-tokens'
import { createDecisionMemory, type DecisionMemory } from '../decision-memory'
import { bodyNotRead, createApp } from '../http/app'
import { answerClientError, answerConnect, answerExpectation, answerMissingHost, appListener } from '../http/client-error'
import { answerAsteriskForm } from '../http/asterisk-form'
import { answerRememberedFirst, type NodeListener } from '../http/first-path'
import { validBodies, type ValidBodies } from '../http/recommendations'
import { createDecisions } from '../decisions/decisions'
import { LIMITS } from '../domain/limits'
import type { TierPolicy } from '../memory/level-store'
import { foldersMissing, markServedBy, openStores, StoreOpenError, storeFolderExposure, undoStoreMaking } from '../open-store'
import { randomHex } from '../random-hex'
import { scheduleDecayScan } from './decay-schedule'
import { takeLocalTurn } from './local-turn'
import { batchedDestination } from './log-destination'
import { ipv4Address } from '../ipv4-address'
import { DEFAULT_HOST } from '../config/service-address'
import { EnvironmentError, envPort, isFetchBarredPort, isLoopback, parsePort, UsageError, parseFlags, dataDirectory, envValue, configFilePath, urlHost } from './options'
import { packageVersion } from './package-version'
import { holdStopSignals, type StopSignal } from './stop-signals'

/**
 * The tokens file, an error in it said with the variable that named it when no --auth did: the
 * file's path alone sent the user looking for a flag they never gave, in a service started by a
 * unit file or a shell profile that sets DECISION_MEMORY_AUTH.
 */
async function tokensNamed(file: string, fromEnvironment: boolean): ReturnType<typeof loadTokens> {
  try {
    return await loadTokens(configFilePath(file), fromEnvironment ? 'DECISION_MEMORY_AUTH' : '--auth')
  } catch (error) {
    if (!fromEnvironment || !(error instanceof TokensFileError)) throw error
    throw new TokensFileError(`DECISION_MEMORY_AUTH: ${error.message}`)
  }
}

export const SERVE_HELP = `decision-memory serve [--port N] [--host ADDR] [--data DIR] [--policy FILE] [--auth TOKENS_FILE]

  --port N       port to listen on (default $DECISION_MEMORY_PORT or 7420; 0 picks a free one,
                 which the "listening" log line gives at any DECISION_MEMORY_LOG_LEVEL)
  --host ADDR    address to bind (default 127.0.0.1), alone: not a URL, and no port (--port);
                 an IPv4 address in a short form the resolver reads (127.1, 2130706433) is
                 bound as the address it is, loopback included
  --data DIR     LevelDB data directory (default $DECISION_MEMORY_DATA or ./data)
  --policy FILE  policy file: JSON, or YAML when its name ends in .yaml or .yml
                 (default policies/default.json)
  --auth FILE    bearer tokens and the users each may act for (default $DECISION_MEMORY_AUTH);
                 required when --host is not a loopback address
`


/** How long a stop lets requests in progress finish before it closes their connections. */
const STOP_GRACE_MS = 5_000

/** How often a stop closes the connections that have gone idle since it began. */
const IDLE_SWEEP_MS = 20
/** How often a service started by `npm start` looks whether npm's shell, its parent, is gone. */
const PARENT_POLL_MS = 250

/** `decision-memory serve`: wires the real parts and owns start and graceful stop. */
export async function serveCommand(argv: string[]): Promise<void> {
  // Read first: a parent gone while the store opens is still seen gone (see the watch below).
  const parentAtStart = process.ppid
  // Held from the first moment (main holds them from before this module loaded): a SIGTERM or
  // SIGINT during the start stops it where it has got to, as one sent later stops the service.
  const signals = holdStopSignals()
  const { values } = parseFlags({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      policy: { type: 'string' },
      auth: { type: 'string' },
    },
    strict: true,
  })
  const port = values.port === undefined ? envPort() : parsePort(values.port, '--port')
  // An IPv6 address in brackets, as a URL writes it (`[::1]`), is the address: the brackets are
  // no part of it, and listening on them failed with getaddrinfo ENOTFOUND.
  const given = (values.host ?? DEFAULT_HOST).replace(/^\[(.*)\]$/, '$1')
  // Brackets around nothing are an empty --host, which Node would take as every interface.
  if (given === '') throw new UsageError(`--host ${values.host} is empty: give the address to listen on, or leave --host out`)
  // An IPv4 address in a short form (`127.1`) is bound as the resolver reads it, 127.0.0.1: the
  // address checked below is then the one bound, and the one said where it listens.
  const host = ipv4Address(given) ?? given
  const shape = hostShapeProblem(values.host ?? DEFAULT_HOST, values.port !== undefined)
  if (shape !== undefined) throw new UsageError(shape)
  const dataDir = dataDirectory(values.data)
  const policyFile = values.policy === undefined ? DEFAULT_POLICY_FILE : configFilePath(values.policy)
  const authFile = values.auth ?? envValue('DECISION_MEMORY_AUTH')
  // Checked here: pino refuses an unknown level with a stack trace that names no variable.
  const logLevel = envValue('DECISION_MEMORY_LOG_LEVEL') ?? 'info'
  const levels = [...Object.keys(pino.levels.values), 'silent']
  if (!levels.includes(logLevel)) {
    // A variable of the environment, not a flag: one line, exit 1, as DECISION_MEMORY_PORT is said.
    throw new EnvironmentError(`DECISION_MEMORY_LOG_LEVEL must be one of ${levels.join(', ')}, not "${logLevel}"`)
  }
  // R-SVC-4: off loopback, anyone on the network could read everyone's data without tokens.
  if (authFile === undefined && !isLoopback(host)) {
    throw new UsageError(`--host ${given} is not a loopback address: give --auth TOKENS_FILE`)
  }
  // Asynchronous writes (log-destination.ts): a line per request must not cost a synchronous
  // write on the hot routes; the lines of up to 20 ms go out in one write, in order, and the
  // stop below writes what waits and waits until all are out (a second at most). Behind a stdout
  // that takes nothing, at most about 4 MB of lines wait (besides the write stuck), and those past
  // it are counted in a line of their own. A kill -9 may lose the last lines, never an acknowledged observation.
  const destination = batchedDestination(1, {
    // A warning, as pino would write it, and only where warnings are logged.
    droppedLine: (count) =>
      logger.isLevelEnabled('warn')
        ? `${JSON.stringify({ level: 40, time: Date.now(), service: 'decision-memory', event: 'log-lines-dropped', dropped: count, msg: `${count} log lines dropped: stdout did not take them` })}\n`
        : '',
  })
  const logger = pino({ level: logLevel, base: { service: 'decision-memory' } }, destination)
  // Listened on and reached by curl, but never by the commands and hooks (options.ts): said at
  // start, not first as every hook's failure. A warning, not a refusal: a client other than fetch may use it.
  if (isFetchBarredPort(port)) {
    const why = `port ${port} is one that fetch, the client of the commands and hooks, will not connect to (a "bad port" of the Fetch standard): they cannot reach this service; run it on another (--port, DECISION_MEMORY_PORT)`
    logger.warn({ event: 'port-barred-by-fetch', port }, why)
    process.stderr.write(`decision-memory serve: warning: ${why}\n`)
  }

  // What the start has made so far, which a stop stops: all three once it is done.
  let store: { close(): Promise<void> } | undefined
  let server: ReturnType<typeof serveHttp> | undefined
  let decayScan: ReturnType<typeof scheduleDecayScan> | undefined
  // Set when the start fails once it has made the store: what undoes it, run once it is closed.
  let unmake: ReturnType<typeof undoStoreMaking> | undefined
  let stopping = false
  // A stop aborts a decay scan asked over HTTP too, between two of its writes, as it does the
  // scheduled one: the store is not closed under it, and the next scan finishes the work.
  const scans = new AbortController()

  /**
   * Stops in order (the decay scan, the server, the store: those the start made), writes the last
   * log lines, and exits with `code`; after a signal, `signal` names it.
   */
  async function stop(reason: { signal: NodeJS.Signals } | { code: number }) {
    if (stopping) return
    stopping = true
    if ('signal' in reason) logger.info({ event: 'stopping', signal: reason.signal }, 'stopping')
    scans.abort()
    // The cron job first: a scan in progress stops between two writes, before the store closes.
    if (decayScan !== undefined) {
      await decayScan.stop()
      logger.info({ event: 'decay-scan-stopped' }, 'decay scan schedule stopped')
    }
    // Requests in progress may finish, and their connections are closed as soon as they are idle
    // (answers begun before the stop did not say Connection: close); a client that holds one
    // open (a body it never ends) does not hold the stop up past STOP_GRACE_MS: its connection is
    // closed then.
    if (server !== undefined) {
      const http = server as Server
      await new Promise<void>((done) => {
        const idle = setInterval(() => http.closeIdleConnections(), IDLE_SWEEP_MS)
        const grace = setTimeout(() => http.closeAllConnections(), STOP_GRACE_MS)
        http.close(() => {
          clearInterval(idle)
          clearTimeout(grace)
          done()
        })
      })
    }
    // After the writes already asked for (level-store.ts).
    const close = async () => store?.close()
    // A store made for this start is closed and removed within a turn at the folder (open-store.ts).
    await (unmake === undefined ? close() : unmake(close, takeLocalTurn))
    logger.info({ event: 'stopped' }, 'stopped')
    // Every line out, in order, before the exit; a stdout that takes none (a reader that does not
    // read) holds the stop up for a second at most.
    const out = await new Promise<boolean>((done) => {
      const timer = setTimeout(() => done(false), 1000)
      void destination.end().then(() => {
        clearTimeout(timer)
        done(true)
      })
    })
    if (out) process.exit('code' in reason ? reason.code : 0)
    // A write may be stuck in one of Node's threads on a full pipe, and process.exit would wait
    // for it for good: the service dies of a signal instead, with the default action, as one
    // without a handler does (the one it was sent, or SIGTERM after a failure). The store is
    // closed; nothing acknowledged is lost.
    dieOf('signal' in reason ? reason.signal : 'SIGTERM')
  }
  /** Ends the process by `signal` with its default action, as one without a handler would. */
  function dieOf(signal: NodeJS.Signals): void {
    process.removeAllListeners('SIGTERM')
    process.removeAllListeners('SIGINT')
    process.kill(process.pid, signal)
  }
  // A second SIGTERM or SIGINT during the stop ends the process at once, with the signal's default
  // action: what was acknowledged is on disk already (R-SVC-3), and LevelDB recovers its log.
  const onSignal = (signal: StopSignal) => {
    if (!stopping) return void stop({ signal })
    dieOf(signal)
  }
  /**
   * Whether a stop signal came during the start, which then stops here, between two of its steps
   * (none left half done), closing what it made; the signals are the stop's from then on.
   */
  const stopAsked = (): boolean => {
    if (signals.received() === undefined) return false
    signals.handOver(onSignal)
    return true
  }
  if (stopAsked()) return

  // A broken policy stops start-up before anything is opened.
  const policy = await loadPolicy(policyFile)
  const auth = authFile === undefined ? undefined : await tokensNamed(authFile, values.auth === undefined)
  if (auth?.exposure !== undefined) logger.warn({ event: 'tokens-file-readable' }, auth.exposure)
  if (auth?.writable !== undefined) logger.warn({ event: 'tokens-file-writable' }, auth.writable)
  // A port taken (or an address not this machine's) found before the store is opened: a mistyped
  // --port made the store in --data (an empty LevelDB, and the folders above it) and only then
  // failed to listen, leaving them behind; now nothing is made or written. The listen below still
  // says a port taken in the instant between the two.
  const refused = await listenRefusal(host, port)
  // Asked to stop first: nothing is made in --data, and the port is no matter then.
  if (stopAsked()) return
  if (refused !== undefined) {
    const why = listenProblem(refused, host, port)
    logger.error({ event: 'listen-failed', code: refused.code, host, port }, why)
    process.stderr.write(`decision-memory serve: ${why}\n`)
    // The log line out before the exit, as stop writes its last ones: a second at most.
    await Promise.race([destination.end(), new Promise((late) => setTimeout(late, 1000).unref())])
    process.exit(1)
  }
  // The port was free a moment ago, but another process may take it before the listen below: a
  // store made for this start is then removed again, as if the port had been found taken here.
  // Whether one was there is read within the turn, just before the open: a command whose turn
  // this start waited for may have made one, and recorded what must not be lost, meanwhile.
  const foldersMade = foldersMissing(dataDir)
  let undoStore: ReturnType<typeof undoStoreMaking> | undefined
  let opened: Awaited<ReturnType<typeof openForService>>
  try {
    // A wait for a command's turn at the store (up to 3 s) ends at a stop signal, with nothing opened.
    const takeTurn = (dir: string) => takeLocalTurn(dir, (ms) => delay(ms, undefined, { signal: signals.aborted }))
    opened = await openForService(dataDir, policy, takeTurn, () => (undoStore = undoStoreMaking(dataDir, foldersMade)))
  } catch (error) {
    if (signals.aborted.aborted && (error as Error).name === 'AbortError' && stopAsked()) return
    throw error
  }
  const { decisionStore, health, loss } = opened
  store = opened.store
  // What LevelDB dropped of a damaged log as it opened the store, which it says only in its own LOG.
  if (loss !== undefined) logger.warn({ event: 'store-damaged' }, loss)
  // With tokens, the users are kept apart over HTTP: a folder others may read would undo it.
  const folderExposure = auth === undefined ? undefined : await storeFolderExposure(dataDir)
  if (folderExposure !== undefined) logger.warn({ event: 'store-folder-readable' }, folderExposure)
  // This run's id in the store's folder, which a command told to use this store checks (store-id.ts).
  const storeId = randomHex(16)
  try {
    await markServedBy(dataDir, storeId)
  } catch (error) {
    await store.close()
    throw error
  }
  if (stopAsked()) return
  const version = packageVersion()
  const decisions = createDecisions({ store: decisionStore, clock: systemClock, policy })
  const memory = createDecisionMemory({ store: opened.store, policy, clock: systemClock, decisions })
  const bodies = validBodies()
  const app = createApp({
    memory: { ...memory, decayScan: (input = {}) => memory.decayScan({ ...input, signal: input.signal ?? scans.signal }) },
    logger,
    version,
    decisions,
    auth,
    bodies,
    storeId,
    storeFailure: health.failure,
  })

  const listener = serviceListener({ app, memory, bodies, logger, auth, host, stopping: () => stopping })
  server = serveHttp({
    fetch: app.fetch,
    port,
    hostname: host,
    createServer: ((options: ServerOptions) => serviceServer(listener, options)) as typeof createServer,
  }, (info) => {
    // Written whatever DECISION_MEMORY_LOG_LEVEL hides (warn, error, silent): it is the one line
    // that says where the service is, the port --port 0 chose, which a script reads to find it.
    const announce = logger.isLevelEnabled('info') ? logger : logger.child({}, { level: 'info' })
    announce.info({ event: 'listening', host, port: info.port, data: dataDir, policy: policyFile, auth: auth !== undefined }, `listening on http://${urlHost(host)}:${info.port}`)
  })

  decayScan = scheduleDecayScan({
    expression: policy.scan.cron,
    cadenceHours: policy.scan.cadence_hours,
    scan: (signal, slot) => memory.decayScan({ signal, now: slot.toISOString() }),
    logger,
    startedAt: systemClock.now(),
  })

  // The signals are the stop's from here (one that came during the start stops it now).
  signals.handOver(onSignal)
  // Under `npm start` the service is the child of the shell npm runs its script in, and that
  // shell does not pass a signal on: `kill <npm's pid>` ended npm and the shell and left the
  // service running, its port and store held, with no clean stop. Its parent gone, it stops as on
  // SIGTERM. (Only under npm start: a service started otherwise may outlive what started it.)
  if (process.env.npm_lifecycle_event === 'start') {
    const parent = parentAtStart
    const watch = setInterval(() => {
      if (process.ppid === parent || stopping) return
      clearInterval(watch)
      logger.info({ event: 'parent-gone', parent }, `npm start (process ${parent}) is gone: stopping`)
      void stop({ signal: 'SIGTERM' })
    }, PARENT_POLL_MS)
    watch.unref()
  }
  answerWhatNodeRefuses(server as Server, logger)
  // A port that cannot be listened on (or a server that fails later): said plainly, not as a
  // crash with a stack trace; every error is logged, the first one stops the service.
  server.on('error', (error: NodeJS.ErrnoException) => {
    const why = server.listening ? `the server on ${urlHost(host)}:${port} failed: ${error.message}` : listenProblem(error, host, port)
    if (!server.listening) unmake = undoStore
    logger.error({ event: server.listening ? 'server-failed' : 'listen-failed', code: error.code, host, port }, why)
    process.stderr.write(`decision-memory serve: ${why}\n`)
    void stop({ code: 1 })
  })
}

/** Why `host`:`port` could not be listened on, in words, of the error the listen gave. */
function listenProblem(error: NodeJS.ErrnoException, host: string, port: number): string {
  const where = `${urlHost(host)}:${port}`
  return error.code === 'EADDRINUSE'
    ? `${where} is in use by another process (is the service already running? --port picks another)`
    : error.code === 'EACCES'
      ? `no permission to listen on ${where}`
      : error.code === 'EADDRNOTAVAIL'
        ? `${host} is not an address of this machine`
        : `cannot listen on ${where}: ${error.message}`
}

/**
 * The error a listen on `host`:`port` gives, tried with a socket opened and closed at once
 * (undefined when it listened): what the service's own listen would meet, before the store is made.
 */
function listenRefusal(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  return new Promise((answer) => {
    const probe = createSocketServer()
    probe.once('error', (error: NodeJS.ErrnoException) => answer(error))
    probe.listen({ port, host }, () => probe.close(() => answer(undefined)))
  })
}

/**
 * What is wrong with `given` (--host) as an address to listen on, when it is written as a URL
 * (`http://127.0.0.1:7420`, DECISION_MEMORY_URL copied) or with its port (`127.0.0.1:7420`,
 * `[::1]:7420`); undefined otherwise. Taken as a host name, it was refused as "not a loopback
 * address: give --auth TOKENS_FILE" (of 127.0.0.1), and, given that, failed to listen
 * (`getaddrinfo ENOTFOUND`), naming no flag. `portGiven`: --port is there, so none is suggested.
 */
export function hostShapeProblem(given: string, portGiven: boolean): string | undefined {
  // No address in it (`[]:7420`): none to name, as of a URL without one.
  const fix = (address: string, port: string) =>
    address === ''
      ? 'give the address alone (127.0.0.1), and the port with --port'
      : port === '' || portGiven
        ? `give the address alone, --host ${address}`
        : `give the address alone and the port with its flag, --host ${address} --port ${port}`
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given)) {
    let url: URL | undefined
    try {
      url = new URL(given)
    } catch {
      url = undefined
    }
    const address = url?.hostname.replace(/^\[(.*)\]$/, '$1') ?? ''
    return `--host ${given} is a URL, not an address: ${fix(address, url?.port ?? '')}`
  }
  // One colon (an IPv6 address has two or more), or an IPv6 address in brackets, then a port: a
  // port mistyped (`127.0.0.1:abc`, `127.0.0.1:`) too, which was told `not a loopback address`,
  // no address or host name holding a colon; only a port of digits is given back for --port.
  const withPort = /^([^:[\]]+):([^:]*)$/.exec(given) ?? /^\[([^\]]*)\]:(.*)$/.exec(given)
  if (withPort !== null) {
    const port = withPort[2] as string
    return `--host ${given} holds a port: ${fix(withPort[1] as string, /^\d+$/.test(port) ? port : '')}`
  }
  return undefined
}

/** Node's options for the service's server: its check of Host is made by the listener instead (`serviceListener`). */
export function serverOptions(options: ServerOptions = {}): ServerOptions {
  return { ...options, requireHostHeader: false }
}

/**
 * The service's server: Node's, with `serverOptions` and the listener, that answers a client
 * which half-closes its side once its request is sent (shutdown(SHUT_WR): `nc`, Python's
 * socket.shutdown, some HTTP/1.0 clients) and then closes the connection. Node's default ends the
 * socket at the client's FIN, and an answer that came later (one that read the store) was lost,
 * though logged as given. With `httpAllowHalfOpen`, which Node's socketOnEnd reads
 * (lib/_http_server.js; a property, not an option, and not in @types/node), the answer in
 * progress, or the last one of those pipelined, is marked the connection's last; a connection
 * half-closed with no request in progress is ended at once, as before.
 */
export function serviceServer(listener: NodeListener, options: ServerOptions = {}): Server {
  const server = createServer(serverOptions(options), listener)
  ;(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true
  // `Expect: 100-continue` (curl's before a large body): Node answered 100 Continue to every one,
  // and a body declared over the limit was sent whole, then refused (413) unread. Refused now
  // before it is sent, by the app as ever (limitBody, from its Content-Length); Node then closes
  // the connection, whose client may have sent the body anyway.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!declaredTooLarge(req)) res.writeContinue()
    listener(req, res)
  })
  return server
}

/** Whether the app refuses the request's body from its declared length alone (app.ts's limitBody). */
function declaredTooLarge(req: IncomingMessage): boolean {
  if (bodyNotRead(req.method ?? '') || req.headers['transfer-encoding'] !== undefined) return false
  return Number(req.headers['content-length']) > LIMITS.bodyBytes
}

/**
 * The service's request listener, outermost first: Connection: close once `stopping` (its
 * keep-alive client goes on elsewhere instead of sending more here; checked as each request
 * comes, so an answer to one begun before the stop does not say it, and its connection is closed
 * once idle), the JSON error to a HTTP/1.1 request without Host (`answerMissingHost`, which the
 * server's options leave to it), the recommendation asked again answered in front of the app
 * (first-path.ts), and @hono/node-server's listener over the app. That one is made here rather
 * than taken from serveHttp, which gives its own no errorHandler: a request it cannot make a
 * Request of then gets a JSON error, not a bare 400; an `OPTIONS *`, which it cannot either, is
 * handed to the app marked (asterisk-form.ts). `remembered: false` leaves out the path in
 * front of the app: a test holds the two chains to the same answers.
 */
export function serviceListener(options: {
  app: { fetch: Parameters<typeof appListener>[0] }
  memory: DecisionMemory
  bodies: ValidBodies
  logger: Logger
  auth: TokenTable | undefined
  host: string
  stopping: () => boolean
  remembered?: boolean
}): NodeListener {
  const { app, memory, bodies, logger, auth, host, stopping, remembered = true } = options
  const listener = answerAsteriskForm(appListener(app.fetch, { hostname: host, logger }))
  const inner = answerMissingHost(logger, remembered ? answerRememberedFirst({ memory, bodies, logger, auth }, listener) : listener)
  return (req, res) => {
    if (stopping()) res.setHeader('Connection', 'close')
    inner(req, res)
  }
}

/**
 * A request Node's parser refuses gets a JSON error too, not a bare 400 (R-SVC-2); and so does a
 * CONNECT, which Node would otherwise answer by closing the connection, and an Expect other than
 * 100-continue, which Node answers with a bare 417.
 */
export function answerWhatNodeRefuses(server: Server, logger: Logger): void {
  server.on('clientError', answerClientError(logger))
  server.on('connect', answerConnect(logger))
  server.on('checkExpectation', answerExpectation(logger))
}

/**
 * Opens the store for the service, after the turn of a command that has it open itself (a
 * `forget --data`, an MCP server's call with no service running: local-turn.ts), as another
 * command would: opened at that moment, LevelDB's lock refused it, and the service did not start
 * (`in use by another process (is the service running?)`, with none running). The turn is given
 * back once the store is open: the service holds it by LevelDB's lock from then on, and commands
 * find it held and go through the service. `takeTurn` is local-turn's, for tests.
 */
export async function openForService(
  dir: string,
  policy: TierPolicy | undefined,
  takeTurn: (dir: string) => Promise<() => Promise<void>> = takeLocalTurn,
  /** Called within the turn, just before the open: the folder is then as the open finds it. */
  opening: () => void = () => {},
): ReturnType<typeof openStores> {
  const giveBack = await takeTurn(dir)
  try {
    opening()
    return await openStores(dir, policy)
  } catch (error) {
    // Most often a second `npm start` (on another --port) of the same folder: asked `is the service
    // running?`, the user, who knew it was, was not told what to do.
    if (error instanceof StoreOpenError && error.locked) {
      throw new StoreOpenError(
        `the store in ${shellWord(dir)} is in use by another process, a service already running on it or a command that has it open: stop that one, or give --data another folder`,
        { locked: true },
      )
    }
    throw error
  } finally {
    await giveBack()
  }
}
