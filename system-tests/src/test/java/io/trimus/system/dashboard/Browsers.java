package io.trimus.system.dashboard;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Headless Chromium from Debian's package (apt-get install chromium chromium-driver) driven by Playwright, with a
 * HOME and TMPDIR of its own under target/; Playwright never downloads a browser.
 */
final class Browsers {
    static final Path CHROMIUM = Path.of("/usr/lib/chromium/chromium");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private Browsers() {
    }

    static Playwright playwright() {
        return Playwright.create(new Playwright.CreateOptions().setEnv(env()));
    }

    static Browser chromium(Playwright playwright) {
        if (!Files.isExecutable(CHROMIUM)) {
            throw new IllegalStateException(CHROMIUM + " not found: install Debian's chromium (./trimus test does, "
                    + "or apt-get install chromium chromium-driver)");
        }
        return playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(CHROMIUM).setHeadless(true).setEnv(env())
                .setArgs(List.of("--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage")));
    }

    private static Map<String, String> env() {
        try {
            Path home = Files.createDirectories(Path.of("target", "browser-home").toAbsolutePath());
            Path tmp = Files.createDirectories(home.resolve("tmp"));
            Files.createDirectories(SCREENSHOTS);
            return Map.of("HOME", home.toString(), "TMPDIR", tmp.toString(), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
