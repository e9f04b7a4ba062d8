package io.trimus.run.service.identity.password;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class FairSharesTest {
    private final List<String> events = new ArrayList<>();

    @Test
    void turnsGoRoundTheSourcesThenRoundTheClaimsOfASource() {
        FairShares shares = new FairShares(1, 100);
        ask(shares, "flood", "", "f0");
        for (int i = 1; i <= 4; i++) {
            ask(shares, "flood", "", "f" + i);
        }
        ask(shares, "dashboard", "203.0.113.1", "alice");
        ask(shares, "dashboard", "203.0.113.2", "bob");
        ask(shares, "flood", "198.51.100.9", "f-claimed");

        for (int i = 0; i < 8; i++) {
            shares.release();
        }
        assertThat(events).containsExactly("f0 granted", "f1 granted", "alice granted", "f-claimed granted",
                "bob granted", "f2 granted", "f3 granted", "f4 granted");
        assertThat(shares.load()).containsExactly(0, 0);
    }

    @Test
    void whenFullANewcomerPushesOutTheNewestOfTheLongestQueueUnlessItsOwnIsTheLongest() {
        FairShares shares = new FairShares(1, 3);
        ask(shares, "flood", "", "running");
        ask(shares, "flood", "", "f1");
        ask(shares, "flood", "", "f2");
        ask(shares, "flood", "", "f3");
        ask(shares, "flood", "", "f4");           // its own source holds the most: refused
        ask(shares, "person", "", "p1");          // pushes out f3
        ask(shares, "person", "", "p2");          // its source would then hold as many as the longest: refused

        assertThat(events).containsExactly("running granted", "f4 refused", "f3 refused", "p2 refused");
        shares.release();
        shares.release();
        assertThat(events).endsWith("f1 granted", "p1 granted");
    }

    private void ask(FairShares shares, String peer, String claim, String name) {
        shares.ask(peer, claim, () -> events.add(name + " granted"), () -> events.add(name + " refused"));
    }
}
