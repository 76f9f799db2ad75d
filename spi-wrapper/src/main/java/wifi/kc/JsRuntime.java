package wifi.kc;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.Source;
import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.io.IOAccess;
import org.jboss.logging.Logger;

/**
 * GraalJS host: one shared Engine, the bundle's Source parsed once, and a bounded pool of
 * idle Contexts (a Context is single-threaded; each call holds one exclusively). JS sees
 * only methods marked {@code @HostAccess.Export} on the facade objects passed to it.
 */
final class JsRuntime implements AutoCloseable {

    private static final String BUNDLE = "/kc-extension/wifi-extension.js";
    private static final String GLOBAL = "WifiExtension";
    private static final Logger LOG = Logger.getLogger(JsRuntime.class);
    private static final int WARM_UP_ROUNDS = 500;
    private static final int IDLE_CONTEXTS = Math.max(2, Runtime.getRuntime().availableProcessors() * 2);

    private static JsRuntime shared;
    private static int users;

    private final Engine engine;
    private final Source source;
    private final BlockingQueue<Context> idle = new ArrayBlockingQueue<>(IDLE_CONTEXTS);
    private final HostAccess hostAccess = HostAccess.newBuilder()
            .allowAccessAnnotatedBy(HostAccess.Export.class)
            .build();
    private volatile boolean closed;

    private JsRuntime() {
        // Keycloak loads providers through its own class loader; polyglot's class-path
        // isolation and service lookup must see the provider jars (DESIGN.md, Keycloak facts).
        System.setProperty("polyglotimpl.DisableClassPathIsolation", "true");
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(JsRuntime.class.getClassLoader());
        try {
            engine = Engine.newBuilder("js")
                    .option("engine.WarnInterpreterOnly", "false")
                    .build();
            source = Source.newBuilder("js", readBundle(), "wifi-extension.js").build();
        } catch (IOException e) {
            throw new IllegalStateException("cannot parse extension bundle", e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Shared runtime for all factories; released by the last {@link #release()}. */
    static synchronized JsRuntime acquire() {
        if (shared == null) {
            shared = new JsRuntime();
        }
        users++;
        return shared;
    }

    static synchronized void release() {
        users--;
        if (users <= 0 && shared != null) {
            shared.close();
            shared = null;
            users = 0;
        }
    }

    /**
     * Creates a Context and runs the bundle's in-memory warm-up in it, so that the first logins
     * find a parsed bundle and a JVM that has compiled the interpreter's hot paths.
     */
    void warmUp() {
        try {
            call("warmUp", WARM_UP_ROUNDS);
        } catch (RuntimeException e) {
            LOG.warnf("extension warm-up failed: %s", e.getClass().getName());
        }
    }

    /** Calls {@code WifiExtension.<function>(args...)} and returns its string result. */
    String call(String function, Object... args) {
        Context context = borrow();
        boolean healthy = false;
        try {
            Value fn = context.getBindings("js").getMember(GLOBAL).getMember(function);
            String result = fn.execute(args).asString();
            healthy = true;
            return result;
        } finally {
            giveBack(context, healthy);
        }
    }

    private Context borrow() {
        Context context = idle.poll();
        return context != null ? context : newContext();
    }

    private void giveBack(Context context, boolean healthy) {
        // A Context that threw may hold half-done state: close it instead of reusing it.
        if (!healthy || closed || !idle.offer(context)) {
            context.close();
        }
    }

    private Context newContext() {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(JsRuntime.class.getClassLoader());
        try {
            Context context = Context.newBuilder("js")
                    .engine(engine)
                    .allowHostAccess(hostAccess)
                    .allowHostClassLookup(name -> false)
                    .allowPolyglotAccess(PolyglotAccess.NONE)
                    .allowIO(IOAccess.NONE)
                    .allowCreateThread(false)
                    .allowNativeAccess(false)
                    .allowCreateProcess(false)
                    .allowEnvironmentAccess(EnvironmentAccess.NONE)
                    .build();
            context.eval(source);
            return context;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static String readBundle() {
        try (InputStream in = JsRuntime.class.getResourceAsStream(BUNDLE)) {
            if (in == null) {
                throw new IllegalStateException("extension bundle missing from the jar: " + BUNDLE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read extension bundle", e);
        }
    }

    @Override
    public void close() {
        closed = true;
        Context context;
        while ((context = idle.poll()) != null) {
            context.close();
        }
        engine.close();
    }
}
