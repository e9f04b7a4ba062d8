package io.trimus.commons.rows;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatabaseRoleCheckTest {
    @Test
    void aLoginThatRowLevelSecurityWouldNotBindIsRefused() {
        assertThatThrownBy(() -> DatabaseRoleCheck.refuseIfPrivileged("postgres", true, false, 0, "run"))
                .hasMessageContaining("TRIMUS_DB_USER (postgres) is a superuser");
        assertThatThrownBy(() -> DatabaseRoleCheck.refuseIfPrivileged("svc", false, true, 0, "run"))
                .hasMessageContaining("has BYPASSRLS");
        assertThatThrownBy(() -> DatabaseRoleCheck.refuseIfPrivileged("trimus", false, false, 3, "egress"))
                .hasMessageContaining("owns 3 tables of schema egress");
    }

    @Test
    void aPlainLoginRoleStarts() {
        assertThatCode(() -> DatabaseRoleCheck.refuseIfPrivileged("trimus_run", false, false, 0, "run"))
                .doesNotThrowAnyException();
    }
}
