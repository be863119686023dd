#!/usr/bin/perl
# A real SMPP 3.4 client for the acceptance suite: Debian's libnet-smpp-perl (Net::SMPP) binds as
# transceiver, submits one UCS-2 text cut into parts with an 8-bit-reference concatenation UDH
# (TS 23.040 §9.2.3.24.1), then answers and reports every deliver_sm until it has seen the
# number asked for, and unbinds. Each event is one line on stdout for the test to read.
#
#   transceiver.pl PORT SYSTEM_ID PASSWORD DESTINATION UTF16BE_HEX DELIVERIES
use strict;
use warnings;
use Net::SMPP;

$| = 1;
my ($port, $system_id, $password, $destination, $hex, $deliveries) = @ARGV;

my $smpp = Net::SMPP->new_transceiver(
    '127.0.0.1',
    port => $port,
    system_id => $system_id,
    password => $password,
    smpp_version => 0x34,
) or die "bind failed: $!\n";
print "bound\n";

my $bytes = pack('H*', $hex);
my @chunks;
# 134 octets: 67 UCS-2 characters beside the 6-octet UDH, in the 140 octets of one SMS.
for (my $offset = 0; $offset < length($bytes); $offset += 134) {
    push @chunks, substr($bytes, $offset, 134);
}
my $total = scalar @chunks;
for my $index (0 .. $#chunks) {
    my $udh = pack('C*', 5, 0x00, 3, 0x2A, $total, $index + 1);
    my $resp = $smpp->submit_sm(
        source_addr => 'Booking',
        destination_addr => $destination,
        dest_addr_ton => 1,
        dest_addr_npi => 1,
        esm_class => 0x40,           # §5.2.12: UDH indicator
        data_coding => 0x08,         # §5.2.19: UCS-2
        registered_delivery => 0x01, # §5.2.17: a receipt on success or failure
        short_message => $udh . $chunks[$index],
    ) or die "submit_sm: no response\n";
    print "submit_sm_resp status=$resp->{status} message_id=$resp->{message_id}\n";
}
print "submitted\n";

my $seen = 0;
while ($seen < $deliveries) {
    my $pdu = $smpp->read_pdu() or die "read_pdu: the connection ended\n";
    if ($pdu->{cmd} == 0x00000005) {
        $smpp->deliver_sm_resp(seq => $pdu->{seq}, message_id => '');
        my $receipted = defined $pdu->{receipted_message_id} ? $pdu->{receipted_message_id} : '';
        $receipted =~ s/\0+$//;
        my $state = defined $pdu->{message_state} ? unpack('C', $pdu->{message_state}) : -1;
        printf "deliver_sm esm_class=%d data_coding=%d source=%s receipted=%s state=%d hex=%s\n",
            $pdu->{esm_class}, $pdu->{data_coding}, $pdu->{source_addr}, $receipted, $state,
            unpack('H*', $pdu->{short_message});
        $seen++;
    } elsif ($pdu->{cmd} == 0x00000015) {
        $smpp->enquire_link_resp(seq => $pdu->{seq});
    }
}
$smpp->unbind();
print "unbound\n";
