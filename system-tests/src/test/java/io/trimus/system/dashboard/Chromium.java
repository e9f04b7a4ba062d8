package io.trimus.system.dashboard;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Playwright;
import io.trimus.testing.TestOperator;

import java.net.URL;
import java.util.Map;

/**
 * One headless Chromium for a browser test class ({@link Browsers}), and the contexts its tests open on the
 * dashboard: signed out, or carrying the test operator's token as a script would.
 */
final class Chromium implements AutoCloseable {
    private final Playwright playwright;
    private final Browser browser;

    private Chromium(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    static Chromium launch() {
        Playwright playwright = Browsers.playwright();
        try {
            return new Chromium(playwright, Browsers.chromium(playwright));
        } catch (RuntimeException e) {
            playwright.close();
            throw e;
        }
    }

    /** A fresh context on the dashboard at {@code width}×{@code height}; {@code asOperator} sends the test operator's token. */
    BrowserContext context(URL dashboard, int width, int height, boolean asOperator) {
        Browser.NewContextOptions options = new Browser.NewContextOptions().setViewportSize(width, height)
                .setBaseURL(dashboard.toString());
        if (asOperator) {
            options.setExtraHTTPHeaders(Map.of("Authorization", TestOperator.HEADER));
        }
        BrowserContext context = browser.newContext(options);
        context.setDefaultTimeout(15_000);
        return context;
    }

    @Override
    public void close() {
        browser.close();
        playwright.close();
    }
}
