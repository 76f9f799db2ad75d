package wifi.kc;

/** A printed voucher code, one step of the direct grant; all of it in the bundle (kc-extension/voucher-auth). */
public final class VoucherAuthenticatorFactory extends ScriptAuthenticatorFactory {

    static final String ID = "wifi-voucher-authenticator";

    public VoucherAuthenticatorFactory() {
        super(ID, "Wi-Fi voucher code", "voucher",
                "Direct grant: a voucher code signs in as the voucher while it is valid and has a slot left.",
                "voucherAuthenticatorSettings", "authenticateVoucher");
    }
}
